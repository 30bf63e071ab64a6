#!/usr/bin/env bash
# Two builds of `debugger-mcp` side by side in one run (issue 13: a refactor must stay within
# noise of the code before it). Rounds alternate old, new, old, new… so both binaries see the
# same machine load; each round runs the agent-cost scenarios (tests/bench/agent_cost/bench.py,
# ours only: calc, heavy, MCP round trip at a pause) and the loopback HTTP load
# (tests/load/bench.sh: p50 at one connection, calls/s at 16, both protocol eras). Prints the
# median of each figure per binary and the ratio new/old.
#
# Usage: tests/bench/old_vs_new.sh OLD_BIN NEW_BIN [rounds=3] [load_seconds=5]
# Needs what the two benchmarks need (debugpy and the Python MCP SDK; wrk).
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?old binary}; new=${2:?new binary}; rounds=${3:-3}; secs=${4:-5}
out=${OUT_DIR:-$(mktemp -d)}; mkdir -p "$out"
echo "raw results: $out" >&2
for r in $(seq "$rounds"); do
  for who in old new; do
    bin=$old; [ "$who" = new ] && bin=$new
    echo "round $r/$rounds: $who" >&2
    DEBUGGER_MCP_BIN="$bin" python3 tests/bench/agent_cost/bench.py --no-peer --out "$out/cost-$who-$r.json" >/dev/null
    DEBUGGER_MCP_BIN="$bin" tests/load/bench.sh "$secs" > "$out/load-$who-$r.txt"
  done
done
python3 - "$out" "$rounds" "$old" "$new" <<'EOF'
import json, pathlib, re, statistics, sys
out, rounds, old, new = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
def figures(who, r):
    c = json.loads((out / f"cost-{who}-{r}.json").read_text())["ours"]
    f = {
        "calc wall ms": c["calc"]["wall_ms"], "heavy wall ms": c["heavy"]["wall_ms"],
        **{f"MCP {t} at a pause ms": ms for t, ms in c["mcp_round_trip_ms"].items()},
        "calc calls": c["calc"]["tool_calls"], "calc text B": c["calc"]["text_bytes"],
        "heavy calls": c["heavy"]["tool_calls"], "heavy text B": c["heavy"]["text_bytes"],
        "tools/list full B": c["tools_list_full_bytes"],
    }
    for line in (out / f"load-{who}-{r}.txt").read_text().splitlines():
        m = re.match(r"(2026-07-28 stateless|2025-11-25 session) (latency|throughput) \(c=\d+\): .*rps=(\d+) p50_us=(\d+)", line)
        if m:
            era, mode = m.group(1).split()[0], m.group(2)
            if mode == "latency":
                f[f"HTTP p50 us, {era}, c=1"] = int(m.group(4))
            else:
                f[f"HTTP calls/s, {era}, c=16"] = int(m.group(3))
    return f
rows = {}
for who in ("old", "new"):
    per = [figures(who, r) for r in range(1, rounds + 1)]
    for k in per[0]:
        rows.setdefault(k, {})[who] = statistics.median(p[k] for p in per)
        rows[k][who + "_all"] = [p[k] for p in per]
print(f"old: {old}\nnew: {new}\nmedians of {rounds} alternating rounds")
print(f"{'figure':40} {'old':>10} {'new':>10} {'new/old':>8}   rounds old | new")
for k, v in rows.items():
    ratio = v["new"] / v["old"] if v["old"] else float("nan")
    fmt = lambda xs: " ".join(f"{x:g}" for x in xs)
    print(f"{k:40} {v['old']:>10g} {v['new']:>10g} {ratio:>8.2f}   {fmt(v['old_all'])} | {fmt(v['new_all'])}")
EOF
