import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Session } from "@tooldock/runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { textOf } from "../../test/mcp-in-memory.js";
import { echo, stagingTool } from "../../test/mcp-test-tools.js";
import { createMcpServer } from "./create-mcp-server.js";
import { listedMcpTools, type ResolveListing } from "./resolve-listing.js";

/**
 * A client that reads the tool list once, when it connects, and never again, as
 * `@ai-sdk/mcp`, Gemini's `mcpToTool` and Anthropic's `mcpTools` do: a call to a tool it did
 * not see listed never reaches the server (`@ai-sdk/mcp` throws `NoSuchToolError`).
 */
class CachingClient {
  readonly listChanged = vi.fn();
  #tools: Tool[] = [];
  readonly #client = new Client({ name: "caching-client", version: "1.0.0" });

  async connect(transport: InMemoryTransport): Promise<void> {
    this.#client.setNotificationHandler(ToolListChangedNotificationSchema, this.listChanged);
    await this.#client.connect(transport);
    this.#tools = (await this.#client.listTools()).tools;
  }

  get tools(): readonly Tool[] {
    return this.#tools;
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  async call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (!this.#tools.some((tool) => tool.name === name)) throw new Error(`NoSuchToolError: ${name}`);
    return (await this.#client.callTool({ name, arguments: args })) as CallToolResult;
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connect(resolve: ResolveListing | undefined) {
  const { tool, apply } = stagingTool();
  const session = new Session({ cwd: process.cwd() });
  session.register(echo, "test");
  session.register(tool, "test");
  const mcp = createMcpServer({ session, ...(resolve === undefined ? {} : { resolve }) });
  const client = new CachingClient();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await session.dispose();
  });
  return { client, session, apply };
}

const names = (tools: readonly Tool[]) => tools.map((tool) => tool.name).sort();

describe("createMcpServer resolve listing, with a client that caches the tool list", () => {
  it("by default (always) the client that caches the list sees resolve and can apply", async () => {
    const { client, session, apply } = await connect(undefined);
    expect(names(client.tools)).toEqual(["echo", "resolve", "stage"]);
    const description = client.tools.find((tool) => tool.name === "resolve")?.description ?? "";
    expect(description).toContain("Apply or discard the newest pending action");
    expect(description).toMatch(/only on previews a tool has staged/);
    expect(description).toMatch(/with nothing pending it changes nothing and answers with an error/);
    expect(client.instructions).toMatch(/always listed/);

    const staged = await client.call("stage", { what: "a" });
    expect(textOf(staged)).toContain("Preview: change a");
    const resolved = await client.call("resolve", { action: "apply", reason: "looks right" });
    expect(resolved.isError).toBeUndefined();
    expect(textOf(resolved)).toContain("applied because looks right");
    expect(apply).toHaveBeenCalledWith("looks right");
    expect(session.pending.size).toBe(0);
    expect(textOf(await client.call("echo", { text: "unblocked" }))).toBe("unblocked");
  });

  it('resolve: "always" sends no list_changed when an action comes and goes: the list stays the same', async () => {
    const { client } = await connect("always");
    await client.call("stage", { what: "a" });
    await client.call("resolve", { action: "discard", reason: "not needed" });
    await client.call("echo", { text: "round trip" });
    expect(client.listChanged).not.toHaveBeenCalled();
  });

  it('resolve: "always" with nothing pending: resolve answers an error result and changes nothing', async () => {
    const { client, apply } = await connect("always");
    const result = await client.call("resolve", { action: "apply", reason: "eager" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("No pending action to resolve.");
    expect(apply).not.toHaveBeenCalled();
  });

  it('with resolve: "pending", the caching client never sees resolve and cannot apply (every other tool is refused)', async () => {
    const { client, session, apply } = await connect("pending");
    expect(names(client.tools)).toEqual(["echo", "stage"]);
    expect(client.instructions).toMatch(/a `resolve` tool appears/);
    await client.call("stage", { what: "a" });
    expect(client.listChanged).toHaveBeenCalledTimes(1); // the notification this client ignores
    await expect(client.call("resolve", { action: "apply", reason: "looks right" })).rejects.toThrow(
      "NoSuchToolError: resolve",
    );
    const refused = await client.call("echo", { text: "hi" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("resolve");
    expect(apply).not.toHaveBeenCalled();
    expect(session.pending.size).toBe(1);
  });

  it('keeps the listing order when an action is staged (resolve: "always"), so caches stay valid', async () => {
    const { client, session } = await connect("always");
    const order = () => listedMcpTools(session, "always").map((tool) => tool.name);
    expect(order()).toEqual(client.tools.map((tool) => tool.name));
    const before = order();
    await client.call("stage", { what: "a" });
    expect(order()).toEqual(before);
    expect(listedMcpTools(session, "pending").map((tool) => tool.name)).toEqual(before);
  });
});
