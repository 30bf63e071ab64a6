-- wrk script: POSTs one MCP JSON-RPC request per call to the sidecar.
-- Environment (set by bench.sh): MCP_BODY (JSON), MCP_METHOD, MCP_NAME (tool name or empty),
-- MCP_VERSION (MCP-Protocol-Version), MCP_SESSION (Mcp-Session-Id or empty), MCP_TOKEN.
wrk.method = "POST"
wrk.body = os.getenv("MCP_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = os.getenv("MCP_VERSION")
local method = os.getenv("MCP_METHOD") or ""
if method ~= "" then wrk.headers["Mcp-Method"] = method end
local name = os.getenv("MCP_NAME") or ""
if name ~= "" then wrk.headers["Mcp-Name"] = name end
local session = os.getenv("MCP_SESSION") or ""
if session ~= "" then wrk.headers["Mcp-Session-Id"] = session end
local token = os.getenv("MCP_TOKEN") or ""
if token ~= "" then wrk.headers["Authorization"] = "Bearer " .. token end

-- Count JSON-RPC errors too: a fast stream of errors must not pass for a benchmark.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init() rpc_errors = 0; bad_status = 0 end
function response(status, headers, body)
  if status ~= 200 then bad_status = bad_status + 1 end
  if body and string.find(body, '"error":', 1, true) then rpc_errors = rpc_errors + 1 end
end
function done(summary, latency, requests)
  local errs, bad = 0, 0
  for _, t in ipairs(threads) do errs = errs + t:get("rpc_errors"); bad = bad + t:get("bad_status") end
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.0f p50_us=%d p90_us=%d p99_us=%d non200=%d rpc_errors=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), bad, errs,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
