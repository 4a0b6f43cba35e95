import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { testCacheDir } from "../helpers.js";
import { project } from "../isolation/isolation-helpers.js";

/**
 * Failure (every pi tool package published since January 2026): a pi extension registers its
 * tools with `pi.registerTool` instead of returning them, and lists itself under
 * `"pi": { "extensions": [...] }`. Tooldock's `pi` had no `registerTool`: 0 of 12 loaded, each
 * `E_FACTORY_THROW … pi.registerTool is not a function` with a hint blaming the author.
 */
const EXTENSION = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  pi.registerTool({
    name: "ext_echo",
    label: "Echo",
    description: "Says it back.",
    parameters: Type.Object({ said: Type.String() }),
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      return { content: [{ type: "text", text: params.said }], details: {} };
    },
  });
}
`;

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("a pi extension package", () => {
  it("loads the tools it registers, not E_FACTORY_THROW 'pi.registerTool is not a function'", async () => {
    const where = await project({
      "extensions/echo.ts": EXTENSION,
      "helper.ts": 'throw new Error("a helper was imported");\n',
      "package.json": JSON.stringify({
        name: "echo-extension",
        pi: { extensions: ["./extensions/echo.ts"] },
      }),
    });
    harness = await createToolHarness({
      paths: where.tools,
      cwd: where.work,
      cacheDir: testCacheDir("pi-extension-regression"),
    });
    expect(harness.diagnostics).toEqual([]);
    expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["ext_echo"]);
    const result = await harness.call("ext_echo", { said: "hello" });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
  });
});
