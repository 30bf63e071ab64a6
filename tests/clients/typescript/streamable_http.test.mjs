// The official TypeScript SDK (@modelcontextprotocol/sdk) against the real `debugger-mcp serve`
// binary: Streamable HTTP (initialize era; the TS SDK has no 2026-07-28 client yet) and the
// legacy SSE transport. Tests named "engine" assert the product's tool list (SPEC §3) and need
// the merged engine; the others exercise the transport only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const bin = process.env.DEBUGGER_MCP_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug", "debugger-mcp");
const expected = JSON.parse(readFileSync(join(repo, "tests/clients/expected_tools.json"), "utf8")).tools.sort();

let server;
let url;

before(async () => {
  assert.ok(existsSync(bin), `sidecar binary missing: ${bin} (cargo build -p debugger-mcp)`);
  const project = mkdtempSync(join(tmpdir(), "dmcp-ts-"));
  writeFileSync(join(project, "debugger-mcp.toml"), "");
  server = spawn(bin, ["serve", "--project", project, "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: server.stdout });
  url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("sidecar printed no URL within 10 s")), 10000);
    lines.once("line", (line) => { clearTimeout(timer); ok(line.trim()); });
  });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/debugger-mcp$/);
});

after(async () => {
  server.kill("SIGTERM");
  const code = await new Promise((ok) => server.once("exit", (c) => ok(c)));
  assert.equal(code, 0, "graceful shutdown on SIGTERM");
});

async function connect(transport) {
  const client = new Client({ name: "ts-sdk-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

test("streamable HTTP: initialize, session, ping, tools/list, close", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = await connect(transport);
  assert.ok(transport.sessionId, "server assigned an Mcp-Session-Id");
  assert.ok(client.getServerVersion()?.name, "serverInfo.name present");
  await client.ping();
  const { tools } = await client.listTools();
  assert.ok(Array.isArray(tools));
  // Explicit DELETE: the session must be gone afterwards.
  const sessionId = transport.sessionId;
  await transport.terminateSession();
  await client.close();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }),
  });
  assert.equal(res.status, 404, "terminated session is unknown");
});

test("legacy SSE transport: initialize, ping, tools/list", async () => {
  const client = await connect(new SSEClientTransport(new URL(url + "/sse")));
  await client.ping();
  const { tools } = await client.listTools();
  assert.ok(Array.isArray(tools));
  await client.close();
});

test("engine: tools/list names the SPEC §3 tools (needs the merged engine)", async () => {
  const client = await connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), expected);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", `${t.name} has an object input schema`);
  }
  await client.close();
});
