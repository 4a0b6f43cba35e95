import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHost } from "@tooldock/loader";
import { Session, type SessionToolContext } from "@tooldock/runtime";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { textOf } from "../../test/mcp-in-memory.js";
import { stagingTool } from "../../test/mcp-test-tools.js";
import { type CreateMcpServerOptions, createMcpServer, type TooldockMcpServer } from "./create-mcp-server.js";

// TypeBox as tool authors get it: the host's single copy, handed over as `pi.typebox`.
const { Type } = new ToolHost().createAPI().typebox;

const echo = defineTool({
  name: "echo",
  label: "Echo",
  description: "Repeats the text.",
  parameters: Type.Object({ text: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  async execute(_id, params, onUpdate) {
    onUpdate?.(textResult(`echoing ${params.text.length} character(s)`));
    return textResult(params.text);
  },
});

const secret = defineTool({
  name: "secret",
  label: "Secret",
  description: "Hidden from the model.",
  hidden: true,
  parameters: Type.Object({}),
  execute: async () => textResult("hidden"),
});

const broken = defineTool({
  name: "broken",
  label: "Broken",
  description: "Always throws.",
  parameters: Type.Object({}),
  execute: async () => {
    throw new Error("disk on fire");
  },
});

interface Harness {
  session: Session;
  client: Client;
  mcp: TooldockMcpServer;
  listChanged: number;
}

const open: Harness[] = [];

async function connect(
  tools: CustomTool[],
  options: Omit<CreateMcpServerOptions, "session"> = {},
): Promise<Harness> {
  const session = new Session({ cwd: process.cwd() });
  for (const tool of tools) session.register(tool, "test");
  const mcp = createMcpServer({ session, ...options });
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const harness: Harness = { session, client, mcp, listChanged: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    harness.listChanged += 1;
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  open.push(harness);
  return harness;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

afterEach(async () => {
  for (const harness of open.splice(0)) {
    await harness.client.close();
    await harness.session.dispose();
  }
});

describe("createMcpServer", () => {
  it("declares tools with list-changed notifications and names itself", async () => {
    const { client } = await connect([echo]);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(client.getServerVersion()?.name).toBe("tooldock");
    expect(client.getInstructions()).toContain("resolve");
  });

  it("lists active tools with title, description, JSON Schema input and annotations", async () => {
    const { tool } = stagingTool();
    const { client } = await connect([echo, secret, tool]);
    const { tools } = await client.listTools();
    // `resolve` is listed from the start by default (resolve: "always"); other hidden tools are not.
    expect(tools.map((entry) => entry.name).sort()).toEqual(["echo", "resolve", "stage"]);
    const listedEcho = tools.find((entry) => entry.name === "echo");
    expect(listedEcho).toMatchObject({
      title: "Echo",
      description: "Repeats the text.",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", minLength: 1 } },
        required: ["text"],
      },
      annotations: { title: "Echo" },
    });
    expect(listedEcho?.annotations?.readOnlyHint).toBeUndefined();
    // A deferrable tool only stages a preview: read-only until `resolve` applies it.
    expect(tools.find((entry) => entry.name === "stage")?.annotations).toEqual({
      title: "Stage",
      readOnlyHint: true,
    });
  });

  it("calls a tool through the session", async () => {
    const { client } = await connect([echo]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("hello");
  });

  it("returns the session's validation error as an error result, not a protocol error", async () => {
    const { client } = await connect([echo]);
    const result = await client.callTool({ name: "echo", arguments: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("text");
  });

  it("turns a throwing tool and an unknown tool into error results", async () => {
    const { client } = await connect([echo, broken]);
    const thrown = await client.callTool({ name: "broken", arguments: {} });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toContain("disk on fire");
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("echo");
  });

  it("forwards partial results as progress notifications when the client asks", async () => {
    const { client } = await connect([echo]);
    const onprogress = vi.fn();
    await client.callTool({ name: "echo", arguments: { text: "abc" } }, undefined, { onprogress });
    expect(onprogress).toHaveBeenCalledWith({ progress: 1, message: "echoing 3 character(s)" });
  });

  it('resolve: "pending": stages a pending action: preview plus reminder, resolve listed, list_changed sent', async () => {
    const { tool } = stagingTool();
    const harness = await connect([echo, tool], { resolve: "pending" });
    const staged = await harness.client.callTool({ name: "stage", arguments: { what: "a" } });
    expect(staged.isError).toBeUndefined();
    const text = textOf(staged);
    expect(text).toContain("Preview: change a");
    expect(text).toMatch(/nothing has changed yet/i);
    expect(text).toContain("Change a");
    expect(text).toContain("resolve");
    expect(harness.listChanged).toBe(1);
    const { tools } = await harness.client.listTools();
    expect(tools.map((entry) => entry.name)).toContain("resolve");
    expect(tools.find((entry) => entry.name === "resolve")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it("holds the block policy: another tool is refused while an action is pending", async () => {
    const { tool, apply } = stagingTool();
    const { client } = await connect([echo, tool]);
    await client.callTool({ name: "stage", arguments: { what: "a" } });
    const refused = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Change a");
    expect(textOf(refused)).toContain("resolve");
    expect(apply).not.toHaveBeenCalled();
  });

  it('resolve: "pending": applies through resolve, then hides resolve again and notifies', async () => {
    const { tool, apply } = stagingTool();
    const harness = await connect([echo, tool], { resolve: "pending" });
    await harness.client.callTool({ name: "stage", arguments: { what: "a" } });
    const resolved = await harness.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "looks right" },
    });
    expect(resolved.isError).toBeUndefined();
    expect(textOf(resolved)).toContain("applied because looks right");
    expect(apply).toHaveBeenCalledWith("looks right");
    expect(harness.listChanged).toBe(2);
    expect(await toolNames(harness.client)).toEqual(["echo", "stage"]);
    expect(textOf(await harness.client.callTool({ name: "echo", arguments: { text: "ok" } }))).toBe("ok");
  });

  it("discards through resolve with the action's reject", async () => {
    const { tool, apply, reject } = stagingTool();
    const { client } = await connect([tool]);
    await client.callTool({ name: "stage", arguments: { what: "a" } });
    const resolved = await client.callTool({
      name: "resolve",
      arguments: { action: "discard", reason: "wrong" },
    });
    expect(textOf(resolved)).toContain("Discarded: Change a. Reason: wrong");
    expect(reject).toHaveBeenCalledWith("wrong");
    expect(apply).not.toHaveBeenCalled();
  });

  it('resolve: "pending": notifies only when the set of tools changes, not on every push', async () => {
    const { tool } = stagingTool();
    const harness = await connect([tool], { resolve: "pending" });
    harness.session.pending.push({ label: "First", apply: async () => textResult("1") });
    harness.session.pending.push({ label: "Second", apply: async () => textResult("2") });
    await harness.client.ping();
    expect(harness.listChanged).toBe(1);
    await harness.client.callTool({ name: "resolve", arguments: { action: "apply", reason: "go" } });
    expect(harness.listChanged).toBe(1);
    await harness.client.callTool({ name: "resolve", arguments: { action: "apply", reason: "go" } });
    expect(harness.listChanged).toBe(2);
  });

  it("keeps the action pending and resolve listed when apply fails", async () => {
    const failing = defineTool({
      name: "fragile",
      label: "Fragile",
      description: "Stages an action whose apply throws.",
      deferrable: true,
      parameters: Type.Object({}),
      async execute(_id, _params, _onUpdate, ctx) {
        (ctx as SessionToolContext).pushPendingAction({
          label: "Fragile change",
          apply: async () => {
            throw new Error("locked");
          },
        });
        return textResult("Preview: fragile");
      },
    });
    const harness = await connect([failing]);
    await harness.client.callTool({ name: "fragile", arguments: {} });
    const failed = await harness.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "try" },
    });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("Apply failed");
    expect(textOf(failed)).not.toMatch(/nothing has changed yet/i);
    expect(await toolNames(harness.client)).toEqual(["fragile", "resolve"]);
    expect(harness.session.pending.size).toBe(1);
  });

  it("settles `closed` when the client goes away, leaving the session to its owner", async () => {
    const { tool, reject } = stagingTool();
    const harness = await connect([tool]);
    await harness.client.callTool({ name: "stage", arguments: { what: "a" } });
    await harness.client.close();
    await harness.mcp.closed;
    expect(harness.session.pending.size).toBe(1);
    expect(reject).not.toHaveBeenCalled();
    await harness.session.dispose();
    expect(reject).toHaveBeenCalledWith("session disposed");
  });
});

// Found by the second read: the server reads the durable stack before each call, and dropped
// what that read threw; a write the store had failed earlier (the read reports it once) was
// never said, and the stack went on differing from the store's.
describe("createMcpServer over a durable session whose store failed a write", () => {
  it("answers the next call with the store's failure, running nothing", async () => {
    const { mkdtempSync, realpathSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { openSqliteJournal } = await import("@tooldock/runtime");
    const real = openSqliteJournal(
      join(realpathSync(mkdtempSync(join(tmpdir(), "tooldock-mcp-store-"))), "p.db"),
    );
    let failNext = false;
    const journal = new Proxy(real, {
      get(target, key) {
        if (key === "move")
          return (id: string, move: never) => {
            if (failNext) {
              failNext = false;
              throw new Error("disk I/O error");
            }
            return target.move(id, move);
          };
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const session = await Session.open({ sessionId: "s", journal, cwd: process.cwd() });
    const staging = stagingTool();
    session.register(staging.tool, "test");
    const mcp = createMcpServer({ session });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverTransport);
    await client.connect(clientTransport);
    open.push({ session, client, mcp, listChanged: 0 });
    const name = staging.tool.name;
    await client.callTool({ name, arguments: { what: "a" } });
    failNext = true;
    session.pending.pop(); // the store fails to record it
    const next = await client.callTool({ name, arguments: { what: "b" } });
    expect(next.isError).toBe(true);
    expect(textOf(next)).toContain("the session's durable store failed when it was read before the call");
    expect(textOf(next)).toContain("disk I/O error");
    expect(textOf(next)).toContain("Nothing was run");
  });

  // JSON-RPC ids "7" and 7 are two requests; both calls ran as toolCallId "mcp-7", so the
  // reminder of the action one of them staged was added to the other's answer too.
  it("mcp-request-id-string-vs-number-shares-toolCallId: keeps each call's notes its own", async () => {
    const session = new Session({ cwd: process.cwd(), pendingPolicy: "allow" });
    const gates = new Map<string, () => void>();
    const stage = defineTool({
      name: "stage",
      label: "Stage",
      description: "Stages an action once let go.",
      parameters: Type.Object({ what: Type.String() }),
      async execute(_id, params, _onUpdate, ctx) {
        await new Promise<void>((resolve) => gates.set(params.what, resolve));
        ctx.pushPendingAction({
          label: `action of ${params.what}`,
          apply: async () => textResult("applied"),
        });
        return textResult(`staged ${params.what}`);
      },
    });
    session.register(stage, "test");
    const mcp = createMcpServer({ session });
    const [client, server] = InMemoryTransport.createLinkedPair();
    await mcp.connect(server);
    const answers = new Map<unknown, { result?: { content?: Array<{ text?: string }> } }>();
    const answered = new Map<unknown, () => void>();
    client.onmessage = (message) => {
      const { id } = message as { id?: unknown };
      answers.set(id, message as never);
      answered.get(id)?.();
    };
    await client.start();
    const request = (id: string | number, method: string, params: Record<string, unknown>) => {
      const done = new Promise<void>((resolve) => answered.set(id, resolve));
      void client.send({ jsonrpc: "2.0", id, method, params });
      return done;
    };
    await request(0, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const byString = request("7", "tools/call", { name: "stage", arguments: { what: "string-id" } });
    const byNumber = request(7, "tools/call", { name: "stage", arguments: { what: "number-id" } });
    while (gates.size < 2) await new Promise((resolve) => setImmediate(resolve));
    gates.get("number-id")?.();
    await byNumber;
    gates.get("string-id")?.();
    await byString;
    const textsOf = (id: unknown) =>
      answers
        .get(id)
        ?.result?.content?.map((block) => block.text)
        .join("\n") ?? "";
    expect(textsOf("7")).toContain("action of string-id");
    expect(textsOf("7")).not.toContain("action of number-id");
    expect(textsOf(7)).toContain("action of number-id");
    expect(textsOf(7)).not.toContain("action of string-id");
    await client.close();
    await session.dispose();
  });
});
