import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, type ToolResultContent } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/create-mcp-server.js";

/**
 * Failure (issue 27, item 3): a tool result could hold text and images only. A tool that
 * returned audio, a resource link or an embedded resource (MCP's other content types) got an
 * error result instead ("content[0] is not a valid block"), so the conformance suite's audio,
 * embedded-resource and mixed-content scenarios failed. Now every MCP content type passes
 * through the session to the client as the tool gave it.
 */
const { Type } = new ToolHost().createAPI().typebox;

const CONTENT: ToolResultContent[] = [
  { type: "text", text: "Three attachments:" },
  { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
  {
    type: "resource_link",
    uri: "file:///reports/q3.md",
    name: "q3.md",
    title: "Q3 report",
    description: "The quarter's figures",
    mimeType: "text/markdown",
  },
  { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "a note" } },
  { type: "resource", resource: { uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" } },
];

describe("mcp: a tool whose result holds audio, a resource link and embedded resources", () => {
  it("reaches the official client with each block as the tool gave it", async () => {
    const attach = defineTool({
      name: "attach",
      label: "Attach",
      description: "Returns one block of each content type.",
      parameters: Type.Object({}),
      execute: async () => ({ content: CONTENT }),
    });
    const session = new Session({ cwd: process.cwd() });
    session.register(attach, "test");
    const server = createMcpServer({ session });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      const result = CallToolResultSchema.parse(await client.callTool({ name: "attach", arguments: {} }));
      expect(result.isError).toBeUndefined();
      expect(result.content).toEqual(CONTENT);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
