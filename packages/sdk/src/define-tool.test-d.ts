import { Type } from "@sinclair/typebox";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, defineToolFactory } from "./define-tool.js";
import { textResult } from "./results.js";
import type { CustomTool, CustomToolFactory } from "./types/custom-tool.js";
import type { CustomToolAPI } from "./types/tool-api.js";
import type { CustomToolContext } from "./types/tool-context.js";

describe("defineTool", () => {
  it("infers params from a TypeBox schema", () => {
    defineTool({
      name: "rename",
      label: "Rename",
      description: "Rename files",
      parameters: Type.Object({
        files: Type.Array(Type.String()),
        dryRun: Type.Optional(Type.Boolean()),
      }),
      async execute(toolCallId, params, _onUpdate, ctx, signal) {
        expectTypeOf(toolCallId).toEqualTypeOf<string>();
        expectTypeOf(params.files).toEqualTypeOf<string[]>();
        expectTypeOf(params.dryRun).toEqualTypeOf<boolean | undefined>();
        expectTypeOf(ctx).toEqualTypeOf<CustomToolContext>();
        expectTypeOf(signal).toEqualTypeOf<AbortSignal | undefined>();
        return textResult("ok");
      },
    });
  });

  it("infers params from a zod v4 schema", () => {
    defineTool({
      name: "search",
      label: "Search",
      description: "Search text",
      parameters: z.object({ query: z.string(), limit: z.number().int().default(10) }),
      async execute(_id, params) {
        expectTypeOf(params.query).toEqualTypeOf<string>();
        // zod's output type: a defaulted field is always present.
        expectTypeOf(params.limit).toEqualTypeOf<number>();
        return textResult(params.query);
      },
    });
  });

  it("does not type params as any", () => {
    defineTool({
      name: "t",
      label: "T",
      description: "d",
      parameters: Type.Object({ files: Type.Array(Type.String()) }),
      async execute(_id, params) {
        expectTypeOf(params.files).not.toBeAny();
        // @ts-expect-error files holds strings, not numbers
        const wrong: number[] = params.files;
        return textResult(String(wrong));
      },
    });
  });

  it("infers details from the result", () => {
    const tool = defineTool({
      name: "t",
      label: "T",
      description: "d",
      parameters: z.object({}),
      async execute() {
        return textResult("ok", { count: 1 });
      },
    });
    expectTypeOf(tool).toExtend<
      CustomTool<z.ZodObject<Record<never, never>>, { count: number } | undefined>
    >();
  });

  it("rejects a tool without execute", () => {
    // @ts-expect-error execute is required
    defineTool({ name: "t", label: "T", description: "d", parameters: z.object({}) });
  });
});

describe("defineToolFactory", () => {
  it("types pi and accepts mixed schema kinds in one array", () => {
    const factory = defineToolFactory((pi) => {
      expectTypeOf(pi).toEqualTypeOf<CustomToolAPI>();
      const a = defineTool({
        name: "a",
        label: "A",
        description: "a",
        parameters: pi.typebox.Type.Object({ n: pi.typebox.Type.Number() }),
        execute: async (_id, params) => textResult(String(params.n + 1)),
      });
      const b = defineTool({
        name: "b",
        label: "B",
        description: "b",
        parameters: pi.zod.object({ s: pi.zod.string() }),
        execute: async (_id, params) => textResult(params.s.toUpperCase()),
      });
      return [a, b];
    });
    expectTypeOf(factory).toExtend<CustomToolFactory>();
  });

  it("accepts an async factory", () => {
    const factory = defineToolFactory(async () => []);
    expectTypeOf(factory).toExtend<CustomToolFactory>();
  });
});
