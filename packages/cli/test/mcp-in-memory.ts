import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Session } from "@tooldock/runtime";
import { onTestFinished } from "vitest";
import {
  type CreateMcpServerOptions,
  createMcpServer,
  type TooldockMcpServer,
} from "../src/mcp/create-mcp-server.js";

/**
 * The SDK's own client connected to `createMcpServer({ session, ...options })` in memory.
 * Call it inside a test: when the test ends the client is closed and the session disposed.
 */
export async function connectInMemory(
  session: Session,
  options: Omit<CreateMcpServerOptions, "session"> = {},
): Promise<{ client: Client; mcp: TooldockMcpServer }> {
  const mcp = createMcpServer({ session, ...options });
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  onTestFinished(async () => {
    await client.close();
    await session.dispose();
  });
  return { client, mcp };
}

/** The text blocks of a `tools/call` result, joined by newlines. */
export const textOf = (result: unknown): string =>
  (result as CallToolResult).content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n");

/**
 * In-memory pipes for `serveMcp`: `toServer` is its stdin, `fromServer` its stdout, and
 * `stderrText()` everything it has written to `stderr` so far.
 */
export function memoryPipes(): {
  toServer: PassThrough;
  fromServer: PassThrough;
  stderr: PassThrough;
  stderrText: () => string;
} {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { toServer, fromServer, stderr, stderrText: () => text };
}
