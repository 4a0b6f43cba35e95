import { Type } from "@sinclair/typebox";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../session.js";
import { validateTool } from "../validate-tool.js";

const Weather = Type.Object({ city: Type.String(), celsius: Type.Number() }, { additionalProperties: false });

function weatherTool(returns: () => unknown, outputSchema: unknown = Weather) {
  return {
    name: "weather",
    label: "Weather",
    description: "The weather in a city.",
    parameters: Type.Object({}),
    outputSchema,
    execute: async () => returns() as AgentToolResult,
  };
}

async function call(tool: object): Promise<AgentToolResult> {
  const session = new Session();
  session.register(tool as never, "tools/weather.ts");
  return session.execute({ toolCallId: "c1", name: "weather", params: {} });
}

const text = (result: AgentToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("structuredContent and outputSchema", () => {
  it("passes matching structuredContent on, as a fresh copy", async () => {
    const data = { city: "Oslo", celsius: 4 };
    const result = await call(
      weatherTool(() => ({ ...textResult("4 °C in Oslo"), structuredContent: data })),
    );
    expect(result).toEqual({ content: [{ type: "text", text: "4 °C in Oslo" }], structuredContent: data });
    expect(result.structuredContent).not.toBe(data);
  });

  it("turns a mismatch into an error result naming the tool and each path", async () => {
    const result = await call(
      weatherTool(() => ({ ...textResult("?"), structuredContent: { city: 7, celsius: 4, wind: 3 } })),
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toBe(
      [
        'Tool "weather" returned structuredContent that does not match its outputSchema:',
        "- /wind: Unexpected property",
        "- /city: Expected string",
        "This is a fault in the tool, not in your call; do not retry the same call, try another way or tell the user.",
      ].join("\n"),
    );
  });

  it("checks a zod outputSchema too", async () => {
    const schema = z.object({ city: z.string(), celsius: z.number().int() });
    const result = await call(
      weatherTool(() => ({ ...textResult("?"), structuredContent: { city: "Oslo", celsius: 4.5 } }), schema),
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("- /celsius:");
  });

  it("refuses a result without structuredContent when the tool declares an outputSchema", async () => {
    const result = await call(weatherTool(() => textResult("4 °C")));
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^Tool "weather" declares an outputSchema but returned no structuredContent\./,
    );
  });

  it("does not check an error result", async () => {
    const result = await call(
      weatherTool(() => ({ content: [{ type: "text", text: "no such city" }], isError: true })),
    );
    expect(result).toEqual({ content: [{ type: "text", text: "no such city" }], isError: true });
  });

  it.each([
    ["an array", [1], "structuredContent must be a JSON object, got an array"],
    [
      "a cycle",
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle;
      })(),
      "structuredContent cannot be turned into JSON",
    ],
  ])("treats structuredContent that is %s as a malformed result", async (_kind, value, problem) => {
    const tool = {
      ...weatherTool(() => ({ content: [], structuredContent: value })),
      outputSchema: undefined,
    };
    const result = await call(tool);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(`returned a malformed result: ${problem}`);
  });

  it("keeps structuredContent of a tool without an outputSchema", async () => {
    const tool = {
      ...weatherTool(() => ({ content: [], structuredContent: { any: ["thing"] } })),
      outputSchema: undefined,
    };
    expect((await call(tool)).structuredContent).toEqual({ any: ["thing"] });
  });

  it("refuses an outputSchema that is not an object schema at load and at registration (E_INVALID_SCHEMA)", () => {
    const checked = validateTool(
      weatherTool(() => undefined, Type.Array(Type.String())),
      { path: "tools/weather.ts" },
    );
    expect(checked.ok).toBe(false);
    expect(checked.diagnostics[0]).toMatchObject({
      code: "E_INVALID_SCHEMA",
      message:
        'Tool "weather" from tools/weather.ts has an unusable outputSchema: The outputSchema must be an object schema at the top level (got type "array"). Wrap it: Type.Object({ ... }).',
    });
    expect(() => new Session().register(weatherTool(() => undefined, { type: "object" }) as never)).toThrow(
      /has an unusable outputSchema: The outputSchema is not a TypeBox or zod v4 schema/,
    );
    expect(
      validateTool(
        weatherTool(() => undefined, "x"),
        { path: "m.ts" },
      ).diagnostics[0],
    ).toMatchObject({
      code: "E_INVALID_TOOL",
      message: expect.stringContaining('"outputSchema" is a string, not a schema'),
    });
  });
});
