import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { testCacheDir } from "../helpers.js";
import { project } from "../isolation/isolation-helpers.js";

/**
 * Failure (13 opencode custom tools from real projects): a `.opencode/tool/*.ts` file exports
 * `tool({ description, args, execute })` definitions, often several. Tooldock loaded 0 of 13,
 * each `E_NO_FACTORY` asking for a pi factory. Fixed: with `opencode: true` each export is a
 * tool named as opencode names it.
 */
const TOOLS = `
import { tool } from "@opencode-ai/plugin";
export const add = tool({
  description: "Adds two numbers",
  args: { a: tool.schema.number(), b: tool.schema.number() },
  async execute(args) {
    return String(args.a + args.b);
  },
});
export default tool({
  description: "Says hello",
  args: { name: tool.schema.string() },
  async execute(args) {
    return "hello " + args.name;
  },
});
`;

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("an opencode project", () => {
  it("loads one tool per tool() export, not E_NO_FACTORY asking for a pi factory", async () => {
    const where = await project({ ".opencode/tool/calc.ts": TOOLS });
    harness = await createToolHarness({
      paths: where.tools,
      cwd: where.work,
      cacheDir: testCacheDir("opencode-regression"),
      opencode: true,
    });
    expect(harness.diagnostics).toEqual([]);
    expect(harness.tools.map(({ tool }) => tool.name).sort()).toEqual(["calc", "calc_add"]);
    expect((await harness.call("calc_add", { a: 2, b: 3 })).content).toEqual([{ type: "text", text: "5" }]);
    expect((await harness.call("calc", { name: "Ada" })).content).toEqual([
      { type: "text", text: "hello Ada" },
    ]);
  });
});
