import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: pi calls a tool given to `pi.registerTool` as
// `execute(toolCallId, params, signal, onUpdate, ctx)`, always. Tooldock told the order by the
// parameters' names, so `(id, params, sig, cb, ctx)`, `(...args)` and minified `(e, t, n, r, i)`
// were called in Tooldock's order: their "signal" was the update callback and their "ctx" the
// AbortSignal. Fixed: a registered tool is called in pi's order unless its names clearly say
// Tooldock's (`declaresCurrentExecuteOrder`).
describe.each(["none", "process"] as const)(
  "a registered tool's execute order (isolation %s)",
  (isolation) => {
    let harness: ToolHarness | undefined;
    afterEach(async () => {
      await harness?.dispose();
      harness = undefined;
    });

    it("is pi's whatever the parameters are called, Tooldock's when the names say so", async () => {
      harness = await createToolHarness({
        paths: join(fixturesDir, "dialects", "pi-extensions", "execute-order-by-position.ts"),
        cwd: fixturesDir,
        cacheDir: testCacheDir(`regression-pi-order-${isolation}`),
        isolation,
      });
      expect(harness.diagnostics).toEqual([]);
      const texts: Record<string, string> = {};
      for (const { tool } of harness.tools) {
        const result = await harness.call(tool.name, {});
        texts[tool.name] = result.content.map((block) => (block as { text?: string }).text ?? "").join("");
      }
      expect(texts).toEqual({
        order_short_names: "signal=true ctx=true",
        order_rest: "signal=true ctx=true",
        order_minified: "signal=true ctx=true",
        order_tooldock: "signal=true ctx=true",
      });
    });
  },
);
