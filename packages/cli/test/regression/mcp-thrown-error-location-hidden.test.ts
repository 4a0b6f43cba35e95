// Attack (on the author, not the server): a tool throws and the MCP client only saw
// `Tool "x" failed: <message>.`, while the session knew the tool's own line that threw
// (tool-call-end's error.location). The client's error result now names it.
import { fileURLToPath } from "node:url";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory, textOf } from "../mcp-in-memory.js";

const { Type } = new ToolHost().createAPI().typebox;
const thisFile = fileURLToPath(import.meta.url);

const failing = defineTool({
  name: "fails",
  label: "Fails",
  description: "Always throws.",
  parameters: Type.Object({}),
  async execute() {
    throw new Error("disk on fire");
  },
});

describe("mcp: a tool that throws", () => {
  it("answers an error result with the message and the tool's own file:line:column", async () => {
    const session = new Session({ cwd: fileURLToPath(new URL("../..", import.meta.url)) });
    session.register(failing, thisFile);
    const { client } = await connectInMemory(session);
    const result = await client.callTool({ name: "fails", arguments: {} });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain("disk on fire");
    expect(text).toMatch(
      /The error was thrown at test\/regression\/mcp-thrown-error-location-hidden\.test\.ts:\d+:\d+\./,
    );
  });

  it("a tool that fails without a stack (a thrown string) gets no location line", async () => {
    const session = new Session({ cwd: process.cwd() });
    session.register(
      defineTool({
        name: "fails",
        label: "Fails",
        description: "Throws a string.",
        parameters: Type.Object({}),
        async execute() {
          throw "plain text";
        },
      }),
      thisFile,
    );
    const { client } = await connectInMemory(session);
    const text = textOf(await client.callTool({ name: "fails", arguments: {} }));
    expect(text).toContain("plain text");
    expect(text).not.toContain("The error was thrown at");
  });
});
