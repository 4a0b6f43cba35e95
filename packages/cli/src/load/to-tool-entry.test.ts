import { ToolHost } from "@tooldock/loader";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { TOOL_ENTRY_KEYS } from "../../test/tool-entry.js";
import { toToolEntry } from "./to-tool-entry.js";

// TypeBox as a tool gets it (`pi.typebox`): the CLI itself does not depend on it.
const { Type } = new ToolHost({ cwd: process.cwd() }).createAPI().typebox;

const base = {
  name: "word_count",
  label: "Word count",
  description: "Counts the words of a text.",
  parameters: Type.Object({ text: Type.String() }),
  execute: async () => textResult("3"),
};

describe("toToolEntry", () => {
  it("lists the annotations MCP clients get and the outputSchema as JSON Schema", () => {
    const entry = toToolEntry({
      tool: {
        ...base,
        annotations: { idempotentHint: true },
        outputSchema: Type.Object({ words: Type.Integer() }),
      },
      path: "tools/word-count.ts",
      resolvedPath: "/work/tools/word-count.ts",
    });
    expect(Object.keys(entry)).toEqual([...TOOL_ENTRY_KEYS, "outputSchema"]);
    expect(entry.annotations).toEqual({ title: "Word count", idempotentHint: true });
    expect(entry.outputSchema).toMatchObject({
      type: "object",
      properties: { words: { type: "integer" } },
      required: ["words"],
    });
  });

  it("gives a deferrable tool read-only by default, which its own annotations override", () => {
    const loaded = (annotations?: { readOnlyHint: boolean }) =>
      toToolEntry({
        tool: { ...base, deferrable: true, ...(annotations ? { annotations } : {}) },
        path: "p",
        resolvedPath: "p",
      });
    expect(loaded().annotations).toEqual({ title: "Word count", readOnlyHint: true });
    expect(loaded({ readOnlyHint: false }).annotations).toEqual({ title: "Word count", readOnlyHint: false });
    expect("outputSchema" in loaded()).toBe(false);
  });
});
