#!/bin/bash
# host_brief.sh DIR BIN [MCPC] > BRIEF: the "host" arm's brief for one run. An MCP host (Claude Code,
# an IDE) starts its servers before the model's first turn and shows it their instructions and
# tools; the command-line client alone shows them only after the agent has chosen to run
# `mcpc start`. So this starts the server for DIR (as the host would) and appends what
# `mcpc start` printed to brief_host.md, with DIR, the client's path and BIN filled in.
# After the agent, end the server: `(cd DIR && mcpc stop)`. A server left running keeps what it
# listens on (Xdebug's port 9003): the next PHP run could not attach (sixth set, round 1).
set -euo pipefail
DIR=${1:?usage: host_brief.sh DIR BIN [MCPC]}
BIN=${2:?usage: host_brief.sh DIR BIN [MCPC]}
HERE=$(cd "$(dirname "$0")" && pwd)
MCPC=${3:-$HERE/mcpc}
SHOWN=$(cd "$DIR" && DEBUGGER_MCP_BIN=$BIN "$MCPC" start "$DIR")
sed -e "s#tests/bench/agents/mcpc#$MCPC#g" -e "s#DIR#$DIR#g" "$HERE/brief_host.md"
printf '%s\n' "$SHOWN" | sed '1{/^server up/d}'
printf '\nDIR=%s\n' "$DIR"
