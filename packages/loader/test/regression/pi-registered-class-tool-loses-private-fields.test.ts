import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: `pi.registerTool(new CounterTool())`, whose class keeps its state in
// #private fields, failed every call with "Cannot read private member": the loader called the
// tool's execute with its own carrier (an object inheriting from the tool) as `this`. Fixed:
// execute is called with the tool itself as `this`.
describe.each(["none", "process"] as const)("a registered class instance (isolation %s)", (isolation) => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  it("reads its #private fields in execute", async () => {
    harness = await createToolHarness({
      paths: join(fixturesDir, "dialects", "pi-extensions", "class-tool-private-fields.ts"),
      cwd: fixturesDir,
      cacheDir: testCacheDir(`regression-pi-private-${isolation}`),
      isolation,
    });
    expect(harness.diagnostics).toEqual([]);
    await harness.call("ext_private_count", {});
    const second = await harness.call("ext_private_count", {});
    expect(second.isError).not.toBe(true);
    expect(second.content).toEqual([{ type: "text", text: "calls=2" }]);
  });
});
