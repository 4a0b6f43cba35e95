// The MCP side of a guarantee the session makes (forwardUpdates: nothing is delivered after a
// call has ended): no `notifications/progress` reaches the client for a request it no longer
// waits for, which the SDK client would reject ("Received a progress notification for an
// unknown token") as an error of the connection.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMcpServer } from "./create-mcp-server.js";

const { Type } = new ToolHost().createAPI().typebox;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("mcp: a partial result after the call's response", () => {
  it("is not sent as a progress notification; the one before the response is", async () => {
    let lateReported!: () => void;
    const late = new Promise<void>((resolve) => {
      lateReported = resolve;
    });
    const lingering = defineTool({
      name: "lingering",
      label: "Lingering",
      description: "Reports progress once during the call and once after it returned.",
      parameters: Type.Object({}),
      async execute(_id, _params, onUpdate) {
        onUpdate?.(textResult("during"));
        setTimeout(() => {
          onUpdate?.(textResult("after"));
          lateReported();
        }, 0);
        return textResult("done");
      },
    });
    const session = new Session({ cwd: process.cwd() });
    session.register(lingering, "test");
    const mcp = createMcpServer({ session });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const onerror = vi.fn();
    client.onerror = onerror;
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const progressSent: JSONRPCMessage[] = [];
    await mcp.connect(serverTransport);
    const send = serverTransport.send.bind(serverTransport);
    serverTransport.send = (message, options) => {
      if ("method" in message && message.method === "notifications/progress") progressSent.push(message);
      return send(message, options);
    };
    await client.connect(clientTransport);
    cleanups.push(async () => {
      await client.close();
      await session.dispose();
    });

    const onprogress = vi.fn();
    const result = await client.callTool({ name: "lingering", arguments: {} }, undefined, { onprogress });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    await late;
    await client.ping(); // anything sent before the ping's answer has arrived by now

    expect(onprogress).toHaveBeenCalledTimes(1);
    expect(onprogress).toHaveBeenCalledWith({ progress: 1, message: "during" });
    expect(progressSent).toHaveLength(1);
    expect(onerror).not.toHaveBeenCalled();
  });

  it("is not sent after the client cancelled the call, while the tool goes on reporting", async () => {
    let tick!: (text: string) => void;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const stubborn = defineTool({
      name: "stubborn",
      label: "Stubborn",
      description: "Reports progress whenever told, and ignores its signal.",
      parameters: Type.Object({}),
      async execute(_id, _params, onUpdate) {
        tick = (text) => onUpdate?.(textResult(text));
        tick("started");
        await finished;
        return textResult("done");
      },
    });
    const session = new Session({ cwd: process.cwd() });
    session.register(stubborn, "test");
    const mcp = createMcpServer({ session });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const onerror = vi.fn();
    client.onerror = onerror;
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverTransport);
    await client.connect(clientTransport);
    cleanups.push(async () => {
      finish();
      await client.close();
      await session.dispose();
    });
    const cancel = new AbortController();
    let started!: () => void;
    const startedSeen = new Promise<void>((resolve) => {
      started = resolve;
    });
    const onprogress = vi.fn(() => started());
    const call = client.callTool({ name: "stubborn", arguments: {} }, undefined, {
      onprogress,
      signal: cancel.signal,
    });
    await startedSeen;
    cancel.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await client.ping(); // the cancellation has reached the server
    tick("after the cancel");
    finish();
    await client.ping();
    expect(onprogress).toHaveBeenCalledTimes(1);
    expect(onerror).not.toHaveBeenCalled();
  });
});
