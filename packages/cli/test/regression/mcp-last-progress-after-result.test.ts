import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMcpServer } from "../../src/mcp/create-mcp-server.js";

/**
 * Failure (issue 27, item 3): a tool that reports progress faster than the session's update
 * interval and then returns had its last partial coalesced, and that last progress
 * notification either followed the result (the official client's `onerror`: "Received a
 * progress notification for an unknown token") or never came: the client's progress stopped
 * short of where the tool's did, and carried no `total`. Now the last partial goes before the
 * result, with the tool's `details.progress` / `details.total` when it gives them.
 */
const { Type } = new ToolHost().createAPI().typebox;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("mcp: a tool that reports progress, then returns", () => {
  it("sends its last progress before the result, with progress and total from its details", async () => {
    const copy = defineTool({
      name: "copy_files",
      label: "Copy",
      description: "Copies four files, reporting each.",
      parameters: Type.Object({}),
      async execute(_id, _params, onUpdate) {
        // Faster than the session's update interval: all but the first are coalesced.
        for (let done = 1; done <= 4; done++)
          onUpdate?.(textResult(`copied ${done} of 4`, { progress: done, total: 4 }));
        return textResult("copied 4 files");
      },
    });
    const session = new Session({ cwd: process.cwd() });
    session.register(copy, "test");
    const mcp = createMcpServer({ session });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const onerror = vi.fn();
    client.onerror = onerror;
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const sent: JSONRPCMessage[] = [];
    await mcp.connect(serverTransport);
    const send = serverTransport.send.bind(serverTransport);
    serverTransport.send = (message, options) => {
      sent.push(message);
      return send(message, options);
    };
    await client.connect(clientTransport);
    cleanups.push(async () => {
      await client.close();
      await session.dispose();
    });

    const onprogress = vi.fn();
    const result = await client.callTool({ name: "copy_files", arguments: {} }, undefined, { onprogress });
    expect(result.content).toEqual([{ type: "text", text: "copied 4 files" }]);
    await client.ping(); // anything sent before the ping's answer has arrived by now

    expect(onprogress.mock.calls.map(([progress]) => progress)).toEqual([
      { progress: 1, total: 4, message: "copied 1 of 4" },
      { progress: 4, total: 4, message: "copied 4 of 4" },
    ]);
    const kinds = sent.map((message) => ("method" in message ? message.method : "response"));
    const lastProgress = kinds.lastIndexOf("notifications/progress");
    const callResponse = sent.findIndex(
      (message) => "result" in message && JSON.stringify(message.result).includes("copied 4 files"),
    );
    expect(lastProgress).toBeGreaterThan(-1);
    expect(lastProgress).toBeLessThan(callResponse);
    expect(onerror).not.toHaveBeenCalled();
  });
});
