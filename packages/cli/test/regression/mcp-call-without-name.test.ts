// Attack: a client sends `tools/call` with no tool name (`params: {}`). The request failed
// the SDK's protocol-layer parse and was answered `-32603 Internal error`, which tells the
// client the server broke; the spec's answer to bad params is `-32602 Invalid params`.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp-in-memory.js";
import { echo } from "../mcp-test-tools.js";

async function connect(): Promise<Client> {
  const session = new Session({ cwd: process.cwd() });
  session.register(echo, "test");
  return (await connectInMemory(session)).client;
}

/** Sends a raw `tools/call` with `params` and returns the JSON-RPC error it is answered with. */
async function callError(client: Client, params: Record<string, unknown>): Promise<McpError> {
  try {
    await client.request({ method: "tools/call", params } as never, ResultSchema);
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("tools/call was answered with a result, not an error");
}

describe("mcp: tools/call with bad params", () => {
  it("answers a call without a name with -32602 Invalid params, naming the field", async () => {
    const client = await connect();
    const error = await callError(client, {});
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("name");
  });

  it("answers a name that is not a string and non-object arguments with -32602 too", async () => {
    const client = await connect();
    expect((await callError(client, { name: 42 })).code).toBe(ErrorCode.InvalidParams);
    expect((await callError(client, { name: "echo", arguments: "text" })).code).toBe(ErrorCode.InvalidParams);
  });

  it("keeps serving: a good call after the bad ones works", async () => {
    const client = await connect();
    await callError(client, {});
    const result = await client.callTool({ name: "echo", arguments: { text: "still here" } });
    expect(result.content).toEqual([{ type: "text", text: "still here" }]);
  });
});
