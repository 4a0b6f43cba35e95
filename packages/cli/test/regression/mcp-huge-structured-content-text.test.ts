// Attack: a tool returns only `structuredContent`, 5 MB of it. MCP asks a server to repeat
// structured data as a text block for clients that read only text, and that block was the
// whole JSON: text content is capped at the session's `maxResultChars`, this copy of the data
// was not, so 5 MB reached a text-only client (and its model's context) uncut. Fix: the text
// block is cut at `maxResultChars` like any text, with the runtime's `… [truncated N
// characters]` ending; `structuredContent` itself still reaches the client whole.
import { ToolHost } from "@tooldock/loader";
import { Session, type SessionOptions } from "@tooldock/runtime";
import { defineTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp-in-memory.js";

const { Type } = new ToolHost().createAPI().typebox;

/** About 5 MB of JSON: 50,000 rows of 100 characters. */
const HUGE = { rows: Array.from({ length: 50_000 }, (_, index) => `${index}`.padEnd(100, "x")) };
const HUGE_JSON = JSON.stringify(HUGE);

const dump = defineTool({
  name: "dump",
  label: "Dump",
  description: "Returns a huge table as structured data and no text.",
  parameters: Type.Object({ small: Type.Optional(Type.Boolean()) }),
  execute: async (_id, params) => ({
    content: [],
    structuredContent: params.small ? { rows: ["a", "b"] } : HUGE,
  }),
});

async function call(options: SessionOptions, small = false) {
  const session = new Session(options);
  session.register(dump);
  const { client } = await connectInMemory(session);
  const result = await client.callTool({ name: "dump", arguments: { small } });
  const content = result.content as Array<{ type: string; text: string }>;
  return { content, structured: result.structuredContent };
}

describe("regression: a huge structuredContent as a text-only client reads it", () => {
  it("cuts the text block at the default maxResultChars (100,000) and keeps the data whole", async () => {
    expect(HUGE_JSON.length).toBeGreaterThan(5_000_000);
    const { content, structured } = await call({});
    expect(content).toHaveLength(1);
    const text = content[0]?.text ?? "";
    expect(text.startsWith(HUGE_JSON.slice(0, 100_000))).toBe(true);
    expect(text.slice(100_000)).toBe(`\n… [truncated ${HUGE_JSON.length - 100_000} characters]`);
    expect(structured).toEqual(HUGE);
  });

  it("follows the session's own maxResultChars", async () => {
    const { content } = await call({ maxResultChars: 1_000 });
    expect(content.map((block) => block.text)).toEqual([
      `${HUGE_JSON.slice(0, 1_000)}\n… [truncated ${HUGE_JSON.length - 1_000} characters]`,
    ]);
  });

  it("leaves the JSON as it is within the limit, or with no limit", async () => {
    expect((await call({ maxResultChars: 1_000 }, true)).content).toEqual([
      { type: "text", text: '{"rows":["a","b"]}' },
    ]);
    expect((await call({ maxResultChars: Number.POSITIVE_INFINITY })).content).toEqual([
      { type: "text", text: HUGE_JSON },
    ]);
  });
});
