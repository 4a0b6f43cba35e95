import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory, textOf } from "./mcp-in-memory.js";

// The official SDK client validates `structuredContent` against the `outputSchema` it read in
// tools/list (and throws when a tool with one returns none), so these calls are a real check
// that what Tooldock lists and what the session lets out agree.
const { typebox, zod: z } = new ToolHost().createAPI();
const { Type } = typebox;

const Forecast = Type.Object(
  { city: Type.String(), celsius: Type.Integer(), tags: Type.Array(Type.String()) },
  { additionalProperties: false },
);

const forecast = defineTool({
  name: "forecast",
  label: "Forecast",
  description: "The forecast for a city.",
  parameters: Type.Object({ city: Type.String() }),
  outputSchema: Forecast,
  async execute(_id, params) {
    const data = { city: params.city, celsius: 4, tags: ["cold"] };
    return { ...textResult(`4 °C in ${params.city}`), structuredContent: data };
  },
});

/** Claims an integer, returns a fraction: the session must stop it before the client sees it. */
const liar = defineTool({
  name: "liar",
  label: "Liar",
  description: "Returns data that contradicts its outputSchema.",
  parameters: Type.Object({}),
  outputSchema: z.object({ count: z.number().int() }),
  execute: async () => ({ content: [], structuredContent: { count: 1.5 } }),
});

/** Structured data and no content: MCP asks for the JSON as text too. */
const dataOnly = defineTool({
  name: "data_only",
  label: "Data only",
  description: "Returns structured data and no text.",
  parameters: Type.Object({}),
  outputSchema: z.object({ ok: z.boolean() }),
  execute: async () => ({ content: [], structuredContent: { ok: true } }),
});

async function connect() {
  const session = new Session();
  for (const tool of [forecast, liar, dataOnly]) session.register(tool);
  return (await connectInMemory(session)).client;
}

describe("structured output over MCP (the SDK client checks it)", () => {
  it("lists each outputSchema as JSON Schema with an object top level", async () => {
    const client = await connect();
    const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(tools.forecast?.outputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, celsius: { type: "integer" } },
      required: ["city", "celsius", "tags"],
      additionalProperties: false,
    });
    expect(tools.liar?.outputSchema).toMatchObject({
      type: "object",
      properties: { count: { type: "integer" } },
    });
  });

  it("returns structuredContent that the client accepts, with the text content beside it", async () => {
    const client = await connect();
    await client.listTools(); // the client learns the output schemas here
    const result = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ city: "Oslo", celsius: 4, tags: ["cold"] });
    expect(textOf(result)).toBe("4 °C in Oslo");
  });

  it("answers a tool's contradicting data with an error result naming the tool and the path", async () => {
    const client = await connect();
    await client.listTools();
    const result = await client.callTool({ name: "liar", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(
      /^Tool "liar" returned structuredContent that does not match its outputSchema:\n- \/count: /,
    );
  });

  it("adds the JSON as the text block when the tool gave no content", async () => {
    const client = await connect();
    await client.listTools();
    const result = await client.callTool({ name: "data_only", arguments: {} });
    expect(result.structuredContent).toEqual({ ok: true });
    expect(textOf(result)).toBe('{"ok":true}');
  });
});
