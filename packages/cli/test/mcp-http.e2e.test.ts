// End to end: the BUILT `tooldock mcp --http` with the SDK's Streamable HTTP client: separate
// sessions per client, Host/Origin and token checks, idle expiry, shutdown. Build first: `pnpm build`.

import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "./cli-process.js";
import { connectHttpClient, startMcpHttpChild } from "./mcp-http-child.js";
import { errorMessage, send } from "./mcp-http-in-process.js";
import { textOf } from "./mcp-in-memory.js";

/** Stages "Stage <what>"; apply writes applied-<what>.txt, reject writes rejected-<what>.txt. */
const STAGE_TOOL = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => ({
  name: "stage",
  label: "Stage",
  description: "Stages a marker file.",
  deferrable: true,
  parameters: pi.typebox.Type.Object({ what: pi.typebox.Type.String() }),
  execute: async (_id, params, _onUpdate, ctx) => {
    ctx.pushPendingAction({
      label: "Stage " + params.what,
      apply: async () => {
        writeFileSync(join(ctx.cwd, "applied-" + params.what + ".txt"), "");
        return { content: [{ type: "text", text: "applied " + params.what }] };
      },
      reject: async () => {
        writeFileSync(join(ctx.cwd, "rejected-" + params.what + ".txt"), "");
      },
    });
    return { content: [{ type: "text", text: "Preview: stage " + params.what }] };
  },
});
`;

/** Stages "Slow change"; its apply writes apply-started.txt, waits 1 s, then writes applied-slow.txt. */
const SLOW_TOOL = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => ({
  name: "slow",
  label: "Slow",
  description: "Stages a change whose apply takes a second.",
  deferrable: true,
  parameters: pi.typebox.Type.Object({}),
  execute: async (_id, _params, _onUpdate, ctx) => {
    ctx.pushPendingAction({
      label: "Slow change",
      apply: async () => {
        writeFileSync(join(ctx.cwd, "apply-started.txt"), "");
        await new Promise((resolve) => setTimeout(resolve, 1000));
        writeFileSync(join(ctx.cwd, "applied-slow.txt"), "");
        return { content: [{ type: "text", text: "slow change made" }] };
      },
    });
    return { content: [{ type: "text", text: "Preview: slow change" }] };
  },
});
`;

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(args: string[] = [], env: Record<string, string> = {}) {
  const work = await tempDir({ "tools/stage.mjs": STAGE_TOOL, "tools/slow.mjs": SLOW_TOOL });
  cleanups.push(work.remove);
  const server = await startMcpHttpChild(["tools", ...args], work.path, env);
  cleanups.push(async () => {
    server.kill();
    await server.exited;
  });
  const files = async () => (await readdir(work.path)).filter((name) => name.endsWith(".txt")).sort();
  return { ...server, cwd: work.path, files };
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const connected = await connectHttpClient(url, headers);
  cleanups.push(() => connected.client.close());
  return connected;
}

describe("tooldock mcp --http", () => {
  it("serves two clients at once, each with its own session and pending stack", async () => {
    // --resolve pending: each session's tool list shows whether that session has an action pending.
    const server = await serve(["--resolve", "pending"]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await connect(server.url);
    const b = await connect(server.url);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);

    const stagedA = await a.client.callTool({ name: "stage", arguments: { what: "a" } });
    expect(textOf(stagedA)).toContain("Preview: stage a");
    // B's session has nothing pending: no resolve listed, and its own call is not blocked by A's action.
    expect((await b.client.listTools()).tools.map((tool) => tool.name)).toEqual(["slow", "stage"]);
    expect((await a.client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "slow", "stage"]);
    const stagedB = await b.client.callTool({ name: "stage", arguments: { what: "b" } });
    expect(stagedB.isError).toBeFalsy();

    const applied = await a.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "ok" },
    });
    expect(textOf(applied)).toBe("applied a");
    expect(await server.files()).toEqual(["applied-a.txt"]);
    // A's apply took A's action only: B's is still pending, and B decides it.
    expect((await b.client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "slow", "stage"]);
    const discarded = await b.client.callTool({
      name: "resolve",
      arguments: { action: "discard", reason: "no" },
    });
    expect(discarded.isError).toBeFalsy();
    expect(await server.files()).toEqual(["applied-a.txt", "rejected-b.txt"]);
    const empty = await a.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "again" },
    });
    expect(textOf(empty)).toContain("No pending action to resolve");
  });

  it("refuses a request from a foreign Origin or for a foreign Host (403), before any session opens", async () => {
    const server = await serve();
    const { port } = new URL(server.url);
    const foreignOrigin = await send(server.url, { headers: { Origin: "https://evil.example" } });
    expect(foreignOrigin.status).toBe(403);
    expect(errorMessage(foreignOrigin.body)).toContain('Origin "https://evil.example" is not allowed');
    // DNS rebinding: a name that resolves to 127.0.0.1 reaches the server with its own Host.
    const rebound = await send(server.url, { headers: { Host: `evil.example:${port}` } });
    expect(rebound.status).toBe(403);
    expect(errorMessage(rebound.body)).toContain("Host");
    expect(server.stderr()).not.toContain("opened");
    // The server's own origin and localhost are fine.
    const own = await send(server.url, {
      headers: { Origin: `http://127.0.0.1:${port}`, Host: `localhost:${port}` },
    });
    expect(own.status).toBe(200);
    expect(own.headers["mcp-session-id"]).toEqual(expect.any(String));
  });

  it("with TOOLDOCK_MCP_TOKEN, refuses a missing or wrong bearer token (401) and serves the right one", async () => {
    const server = await serve([], { TOOLDOCK_MCP_TOKEN: "s3cret-token" });
    const missing = await send(server.url, { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toContain("Bearer");
    const wrong = await send(server.url, { headers: { Authorization: "Bearer s3cret-tokem" } });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error.message).toContain("the bearer token is wrong");
    await expect(connectHttpClient(server.url, { Authorization: "Bearer nope" })).rejects.toThrow(
      /Unauthorized/,
    );
    // Not the endpoint: 404 even without the token (no OAuth metadata here), so a client stops looking.
    const metadata = await fetch(new URL("/.well-known/oauth-protected-resource", server.url));
    expect(metadata.status).toBe(404);
    const { client } = await connect(server.url, { Authorization: "Bearer s3cret-token" });
    // `resolve` is listed from the start (the default, --resolve always).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "slow", "stage"]);
  });

  it("tells the client by a log entry when it cancelled a resolve whose apply then finished", async () => {
    const server = await serve();
    const { client, logs } = await connect(server.url);
    await client.callTool({ name: "slow", arguments: {} });
    const cancel = new AbortController();
    const resolving = client.callTool(
      { name: "resolve", arguments: { action: "apply", reason: "go" } },
      undefined,
      {
        signal: cancel.signal,
      },
    );
    await expect.poll(server.files, { timeout: 10_000 }).toContain("apply-started.txt");
    cancel.abort();
    await expect(resolving).rejects.toThrow();
    await expect
      .poll(() => logs.join("\n"), { timeout: 10_000 })
      .toContain('the apply of pending action "Slow change"');
    expect(logs.join("\n")).toContain("it finished: slow change made");
    expect(await server.files()).toEqual(["applied-slow.txt", "apply-started.txt"]);
    // The cancelled resolve took the action: nothing is pending (resolve stays listed, the default).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "slow", "stage"]);
    const again = await client.callTool({ name: "resolve", arguments: { action: "apply", reason: "again" } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain("No pending action to resolve.");
  });

  it("expires a session left without a connection, discarding its actions through reject", async () => {
    const server = await serve(["--idle-timeout", "1500"]);
    const { client, transport } = await connect(server.url);
    await client.callTool({ name: "stage", arguments: { what: "gone" } });
    const sessionId = transport.sessionId ?? "";
    await client.close(); // goes away without ending the session (no DELETE)
    await expect.poll(server.files, { timeout: 10_000 }).toEqual(["rejected-gone.txt"]);
    expect(server.stderr()).toContain("idle for 1500 ms without a connection");
    expect(server.stderr()).toContain("discarding 1 pending action: Stage gone");
    const late = await send(server.url, {
      headers: { "Mcp-Session-Id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(late.status).toBe(404);
  });

  it("stops cleanly when its stdin pipe closes, discarding what is pending; exit code 0", async () => {
    const server = await serve();
    const { client } = await connect(server.url);
    await client.callTool({ name: "stage", arguments: { what: "left" } });
    server.closeStdin();
    expect(await server.exited).toBe(0);
    expect(await server.files()).toEqual(["rejected-left.txt"]);
    expect(server.stderr()).toContain("the server is stopping");
  });

  it("stops cleanly on SIGTERM; exit code 0", async () => {
    const server = await serve();
    await connect(server.url);
    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("options of --http without it are bad usage, and so is a port out of range", async () => {
    const work = await tempDir({ "tools/stage.mjs": STAGE_TOOL });
    cleanups.push(work.remove);
    const port = await runCli(["mcp", "tools", "--port", "1234"], { cwd: work.path });
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("--port needs --http");
    const badPort = await runCli(["mcp", "tools", "--http", "--port", "70000"], { cwd: work.path });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain("--port must be a whole number from 0 to 65535");
  });

  it("--watch: an edited tool reaches open sessions (list_changed, pending kept) and new ones", async () => {
    const server = await serve(["--watch"]);
    const a = await connect(server.url);
    // Each list_changed is a reload: wait for the one after which the list shows the edit (a
    // watcher may report the write in two events, the first reloading a half-written file).
    const edited = new Promise<void>((resolve) =>
      a.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        const { tools } = await a.client.listTools();
        if (tools.find((tool) => tool.name === "stage")?.description === "Stages a marker file, v2.")
          resolve();
      }),
    );
    await a.client.callTool({ name: "stage", arguments: { what: "before" } });
    await writeFile(
      join(server.cwd, "tools/stage.mjs"),
      STAGE_TOOL.replace("Stages a marker file.", "Stages a marker file, v2."),
    );
    await edited;
    expect(server.stderr()).toMatch(/reloaded after a change: added none; removed none; replaced .*stage/);
    // The action staged before the edit is still pending in A's session and still applies.
    const applied = await a.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "ok" },
    });
    expect(textOf(applied)).toBe("applied before");
    const b = await connect(server.url);
    const listed = (await b.client.listTools()).tools.find((tool) => tool.name === "stage");
    expect(listed?.description).toBe("Stages a marker file, v2.");
  });
});
