import { Type } from "@sinclair/typebox";
import { describe, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { textResult } from "./results.js";

describe("annotations and structured output in CustomTool", () => {
  it("takes MCP's annotation names, booleans only (a title a string)", () => {
    defineTool({
      name: "read_note",
      label: "Read note",
      description: "Reads a note.",
      parameters: Type.Object({}),
      annotations: { title: "Read a note", readOnlyHint: true, openWorldHint: false },
      execute: async () => textResult("note"),
    });
    defineTool({
      name: "bad_hint",
      label: "Bad hint",
      description: "A hint that is not a boolean.",
      parameters: Type.Object({}),
      // @ts-expect-error readOnlyHint is a boolean
      annotations: { readOnlyHint: "yes" },
      execute: async () => textResult("x"),
    });
  });

  it("takes an outputSchema and a structuredContent object beside the content", () => {
    defineTool({
      name: "forecast",
      label: "Forecast",
      description: "The forecast.",
      parameters: Type.Object({ city: Type.String() }),
      outputSchema: z.object({ city: z.string(), celsius: z.number() }),
      async execute(_id, params) {
        return {
          ...textResult(`4 °C in ${params.city}`),
          structuredContent: { city: params.city, celsius: 4 },
        };
      },
    });
    defineTool({
      name: "not_an_object",
      label: "Not an object",
      description: "structuredContent must be an object.",
      parameters: Type.Object({}),
      // @ts-expect-error structuredContent is a JSON object, not a string
      execute: async () => ({ content: [], structuredContent: "text" }),
    });
  });
});
